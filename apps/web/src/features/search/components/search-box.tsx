import { useState } from 'react';
import { Alert, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useSearchItems } from '../api/search';
import { useSearchT } from '../i18n';
import { ItemList } from './item-list';

/** A name search over datasets, projects, models and teams, with its results below the field. */
export function SearchBox({ autoFocus, onOpen, testId = 'search' }: { autoFocus?: boolean; onOpen?: () => void; testId?: string }) {
  const { t } = useSearchT();
  const [value, setValue] = useState('');
  const [q] = useDebouncedValue(value, 200);
  const search = useSearchItems(q);
  const results = q.trim() && value.trim() ? (search.data?.results ?? []) : [];
  return (
    <Stack gap="xs" data-testid={testId}>
      <TextInput
        type="search"
        value={value}
        onChange={(e) => setValue(e.currentTarget.value)}
        placeholder={t('placeholder')}
        aria-label={t('label')}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={search.isFetching ? <Loader size={14} aria-hidden /> : null}
        autoFocus={autoFocus}
        data-autofocus={autoFocus || undefined}
        data-testid="search-input"
      />
      {search.isError && value.trim() && (
        <Alert color="red" variant="light" p="xs">
          {t('failed')}
        </Alert>
      )}
      {results.length > 0 && <ItemList items={results} onOpen={onOpen} testId="search-results" />}
      {value.trim() && q.trim() && search.isSuccess && !search.isPlaceholderData && results.length === 0 && (
        <Text size="sm" c="dimmed" px="xs" data-testid="search-empty">
          {t('noResults', { q: q.trim() })}
        </Text>
      )}
    </Stack>
  );
}
