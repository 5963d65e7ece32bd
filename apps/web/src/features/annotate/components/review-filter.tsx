import { useEffect, useMemo } from 'react';
import { Group, Select, Text } from '@mantine/core';
import type { ClassCounts, ReviewFilter as Filter } from '@sightline/contracts';
import { useDatasetVersions } from '../../datasets';
import type { ReviewSelection } from '../api/get-review-page';
import { useAnnotateT } from '../i18n';

const ALL = 'all';

/**
 * The editor's review menu (ADR 0039's filters): every image, unlabelled ones, ones with pending suggestions, ones
 * changed since a version, or the images an evaluation found the model and the labels disagree on (the evaluation
 * is named by the link from its label mistakes). The dataset's totals from the class counts stand beside it.
 */
export function ReviewFilter({
  datasetId,
  value,
  evaluationId,
  counts,
  shown,
  more,
  onChange,
}: {
  datasetId: string;
  value: ReviewSelection | null;
  /** The evaluation the page was opened from (`?evaluation=`); without one `disagree` cannot be chosen. */
  evaluationId: string | null;
  counts: ClassCounts | undefined;
  /** Images the filter has listed so far, and whether more pages follow. */
  shown: number;
  more: boolean;
  onChange(next: ReviewSelection | null): void;
}) {
  const { t } = useAnnotateT();
  const versionsQuery = useDatasetVersions(datasetId, value?.filter === 'changed-since');
  const versions = useMemo(() => versionsQuery.data ?? [], [versionsQuery.data]);
  // Changed since… starts from the newest version.
  const newest = versions[0]?.number;
  useEffect(() => {
    if (value?.filter === 'changed-since' && !value.since && newest) onChange({ filter: 'changed-since', since: newest });
  }, [value, newest, onChange]);

  const options = [
    { value: ALL, label: t('review.all') },
    { value: 'unlabelled', label: t('review.unlabelled') },
    { value: 'suggested', label: t('review.suggested') },
    { value: 'changed-since', label: t('review.changedSince') },
    { value: 'disagree', label: evaluationId ? t('review.disagree') : t('review.disagreeNone'), disabled: !evaluationId },
  ];
  return (
    <Group gap="xs" wrap="wrap" align="center" data-testid="review-filter">
      <Select
        aria-label={t('review.label')}
        data={options}
        value={value?.filter ?? ALL}
        onChange={(v) => {
          const filter = (v ?? ALL) as Filter | typeof ALL;
          if (filter === ALL) onChange(null);
          else if (filter === 'disagree') onChange({ filter, evaluationId: evaluationId ?? undefined });
          else onChange({ filter });
        }}
        allowDeselect={false}
        size="xs"
        w={220}
        maw="100%"
        comboboxProps={{ withinPortal: true }}
        data-testid="review-filter-select"
      />
      {value?.filter === 'changed-since' &&
        (versions.length ? (
          <Select
            aria-label={t('review.version')}
            data={versions.map((v) => ({ value: String(v.number), label: t('review.versionN', { number: v.number }) }))}
            value={value.since ? String(value.since) : null}
            onChange={(v) => v && onChange({ filter: 'changed-since', since: Number(v) })}
            allowDeselect={false}
            size="xs"
            w={140}
            comboboxProps={{ withinPortal: true }}
            data-testid="review-filter-version"
          />
        ) : versionsQuery.isSuccess ? (
          <Text size="xs" c="dimmed">
            {t('review.noVersions')}
          </Text>
        ) : null)}
      <Text size="xs" c="dimmed" data-testid="review-summary">
        {value ? t(more ? 'review.shownMore' : 'review.shown', { count: shown }) : ''}
        {value && counts ? ' · ' : ''}
        {counts ? t('review.totals', { images: counts.images, unlabelled: counts.unlabelled }) : ''}
      </Text>
    </Group>
  );
}
