import { useState } from 'react';
import { Badge, Skeleton, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconPhotoOff } from '@tabler/icons-react';
import type { DiffImage } from '../api/get-dataset-diff';
import { useDatasetsT } from '../i18n';
import { LabelOverlay } from './label-overlay';
import classes from './images-tab.module.css';

/** One image of a diff: its thumbnail with the labels of one side drawn over it (the Images tab's frame), a caption below. */
export function DiffTile({
  image,
  task,
  classNames,
  caption,
  onOpen,
}: {
  image: DiffImage;
  task: string;
  classNames: string[];
  caption?: string;
  onOpen: () => void;
}) {
  const { t } = useDatasetsT();
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  const ratio = image.width && image.height ? image.width / image.height : 1;
  return (
    <UnstyledButton className={classes.tile} onClick={onOpen} aria-label={t('images.open', { name: image.name })} data-testid="diff-tile">
      <div className={classes.frame}>
        {image.thumbUrl && !failed ? (
          <div className={classes.fit} style={{ aspectRatio: ratio, ...(ratio >= 1 ? { width: '100%' } : { height: '100%' }) }}>
            {!loaded && <Skeleton pos="absolute" inset={0} radius={0} />}
            <img
              src={image.thumbUrl}
              alt=""
              loading="lazy"
              decoding="async"
              className={classes.thumb}
              onLoad={() => setLoaded(true)}
              onError={() => setFailed(true)}
            />
            {loaded && <LabelOverlay labels={image.labels ?? []} task={task} classNames={classNames} strokeWidth={1.5} />}
          </div>
        ) : (
          <Stack align="center" gap={4}>
            <ThemeIcon variant="light" color="gray" size="lg">
              <IconPhotoOff size={18} aria-hidden />
            </ThemeIcon>
            <Text size="xs" c="dimmed">
              {t('images.noThumb')}
            </Text>
          </Stack>
        )}
        <Badge size="xs" variant="filled" color="dark" className={classes.split}>
          {t(`splits.${image.split}`, { defaultValue: image.split })}
        </Badge>
      </div>
      <Text size="xs" px={8} pt={6} pb={caption ? 0 : 6} truncate title={image.name}>
        {image.name}
      </Text>
      {caption && (
        <Text size="xs" c="dimmed" px={8} pb={6} truncate>
          {caption}
        </Text>
      )}
    </UnstyledButton>
  );
}
