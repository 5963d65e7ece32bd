import { useEffect, useState } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { ErrorCode, Messages } from '@sightline/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { onApiError } from '../lib/api-client';
import { meQueryKey, signOut, useMe } from '../lib/auth';
import { startup } from '../lib/startup';

/**
 * Spec §4: an account whose deletion has started gets the alert 'This account is currently being
 * deleted.' and is signed out — when the server answers auth/account-deleted, or when the user
 * document carries dates.deleted.
 */
export function AccountDeletedAlert() {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { user } = useMe();
  const { t } = useTranslation();
  const deleted = !!user?.dates.deleted;

  useEffect(() => {
    const trigger = () => {
      setOpen(true);
      startup.reset();
      void signOut(queryClient).catch(() => undefined);
    };
    if (deleted) trigger();
    return onApiError((error) => {
      // Only a signed-in session is ended here; the sign-in form shows its own alert.
      if (error.code === ErrorCode.AccountDeleted && queryClient.getQueryData(meQueryKey)) trigger();
    });
  }, [deleted, queryClient]);

  return (
    <Modal
      opened={open}
      onClose={() => {
        setOpen(false);
        navigate('/signin');
      }}
      withCloseButton={false}
      centered
      title={
        <Group gap="xs">
          <IconAlertTriangle size={20} color="var(--mantine-color-red-7)" aria-hidden />
          <Text fw={650}>{t('accountDeleted.title')}</Text>
        </Group>
      }
    >
      <Text data-testid="account-deleted">{Messages.accountDeleted}</Text>
      <Group justify="flex-end" mt="md">
        <Button
          onClick={() => {
            setOpen(false);
            navigate('/signin');
          }}
        >
          {t('ok')}
        </Button>
      </Group>
    </Modal>
  );
}
