import training from '../locales/en/training.json';
import { addNamespace } from './i18n-namespace';

/**
 * Strings of the training, preview and inference-usage screens (shared by the models and settings
 * features and the key picker). Registered when one of those lazy chunks loads.
 */
export const TRAINING_NS = 'training';
addNamespace(TRAINING_NS, training);
