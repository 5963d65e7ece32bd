import { useState } from 'react';
import { Button, Group, Input, Modal, Rating, Stack, Text, Textarea } from '@mantine/core';
import { FEEDBACK_RATING_MAX, FEEDBACK_REVIEW_MAX, Messages, type User } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { notifications } from '../../../lib/notifications';
import { useUpdateFeedback } from '../api/update-feedback';

/** Save is enabled only when the rating or the trimmed review differs from the saved feedback (spec §5). */
export function feedbackChanged(saved: User['feedback'], rating: number, review: string): boolean {
  const savedRating = saved?.rating ?? 0;
  const savedReview = saved?.review ?? '';
  return rating !== savedRating || review.trim() !== savedReview.trim();
}

function FeedbackForm({ user, onDone }: { user: User; onDone: () => void }) {
  const { t } = useTranslation();
  const [rating, setRating] = useState(user.feedback?.rating ?? 0);
  const [review, setReview] = useState(user.feedback?.review ?? '');
  const save = useUpdateFeedback();
  const changed = feedbackChanged(user.feedback, rating, review);

  const submit = () =>
    save.mutate(
      { rating: rating || null, review: review.trim().slice(0, FEEDBACK_REVIEW_MAX) },
      {
        onSuccess: () => {
          notifications.success(t('feedback.saved'));
          onDone();
        },
        onError: () => notifications.error(Messages.somethingWrong),
      },
    );

  return (
    <Stack gap="md">
      <Input.Wrapper label={t('feedback.rating')} id="feedback-rating-label">
        <Rating
          value={rating}
          onChange={setRating}
          count={FEEDBACK_RATING_MAX}
          size="xl"
          mt={4}
          aria-labelledby="feedback-rating-label-label"
          getSymbolLabel={(i) => t('feedback.stars', { count: i })}
        />
      </Input.Wrapper>
      <Textarea
        label={t('feedback.review')}
        placeholder={t('feedback.placeholder')}
        autosize
        minRows={4}
        maxRows={8}
        maxLength={FEEDBACK_REVIEW_MAX}
        value={review}
        onChange={(e) => setReview(e.currentTarget.value)}
        description={t('feedback.count', { count: review.length, max: FEEDBACK_REVIEW_MAX })}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t('cancel')}
        </Button>
        <Button onClick={submit} disabled={!changed} loading={save.isPending}>
          {t('save')}
        </Button>
      </Group>
    </Stack>
  );
}

export function FeedbackDialog({ opened, onClose, user }: { opened: boolean; onClose: () => void; user: User }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      centered
      title={
        <Stack gap={2}>
          <Text fw={650} fz="lg">
            {t('feedback.title')}
          </Text>
          <Text size="sm" c="dimmed">
            {Messages.feedbackSubtitle}
          </Text>
        </Stack>
      }
    >
      {opened && <FeedbackForm user={user} onDone={onClose} />}
    </Modal>
  );
}
