/** The three-step train dialog (dataset → model → config, then training options). Owned by the training work. */
export interface TrainDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Pre-selects a project (opened from a project page). */
  projectId?: string;
  /** Opened from an existing, not yet trained model: start its training. */
  modelId?: string;
}

export function TrainDialog({ opened }: TrainDialogProps) {
  return opened ? null : null;
}
