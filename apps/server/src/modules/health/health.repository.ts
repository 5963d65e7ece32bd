import type { Database } from '../../platform/db/client.js';

export const healthRepository = {
  /** One round trip to the database. */
  ping: async (database: Database) => {
    await database.query('SELECT 1');
  },
};
