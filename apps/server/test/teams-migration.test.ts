import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from './support/harness.js';
import type { Database } from '../src/platform/db/client.js';

let db: { database: Database; drop(): Promise<void> };
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe('0007_teams migration', () => {
  it('creates teams, team_members and team_invites with one pending invite per team and email', async () => {
    const { database } = db;
    await database.exec(`INSERT INTO users (id, email, username, first_name, image) VALUES ('u1', 'a@x.io', 'a', 'A', ''), ('u2', 'b@x.io', 'b', 'B', '')`);
    await database.exec(`INSERT INTO teams (id, owner_id, name) VALUES ('t1', 'u1', 'Team')`);
    await database.exec(`INSERT INTO team_members (team_id, user_id, role) VALUES ('t1', 'u1', 'owner')`);
    await expect(database.exec(`INSERT INTO team_members (team_id, user_id, role) VALUES ('t1', 'u2', 'boss')`)).rejects.toThrow();
    await expect(database.exec(`INSERT INTO team_members (team_id, user_id, role) VALUES ('t1', 'u1', 'member')`)).rejects.toThrow();
    const invite = (id: string, email: string) =>
      database.exec(
        `INSERT INTO team_invites (id, team_id, email, role, invited_by, token_hash, expires_at) VALUES ('${id}', 't1', '${email}', 'member', 'u1', 'h${id}', now() + interval '7 days')`,
      );
    await invite('i1', 'b@x.io');
    await expect(invite('i2', 'B@x.io')).rejects.toThrow();
    await database.exec(`UPDATE team_invites SET cancelled_at = now() WHERE id = 'i1'`);
    await invite('i3', 'b@x.io');
    await database.exec(`DELETE FROM teams WHERE id = 't1'`);
    const rest = await database.query<{ n: number }>(`SELECT (SELECT count(*) FROM team_members)::int + (SELECT count(*) FROM team_invites)::int AS n`);
    expect(rest[0]!.n).toBe(0);
  });
});
