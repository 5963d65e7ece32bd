import type { TrainingRow } from './training.repository.js';

/** The web app's views of a client-reported run. */

export function presentConsole(rows: Array<{ chunkId: number; content: string; lineCount: number; created: Date }>, limit: number) {
  return {
    data: rows.map((c) => ({ chunkId: c.chunkId, content: c.content, lineCount: c.lineCount, created: c.created.toISOString() })),
    next: rows.length === limit ? rows[rows.length - 1]!.chunkId : null,
  };
}

/** A run's final results; machine details (paths, hostnames) only for those who may train the model. */
export function presentResults(found: { run: TrainingRow; trainer: boolean } | null) {
  if (!found) return null;
  const { run: row, trainer } = found;
  return {
    protocol: row.protocol,
    outcome: row.outcome,
    epochsTotal: row.epochsTotal,
    bestEpoch: row.bestEpoch,
    bestFitness: row.bestFitness,
    finalMetrics: row.finalMetrics,
    results: row.results,
    plots: row.plots,
    modelInfo: row.modelInfo,
    system: trainer ? row.system : null,
    environment: trainer ? row.environment : null,
  };
}
