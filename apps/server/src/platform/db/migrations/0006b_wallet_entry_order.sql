-- Ledger order is insertion order (several entries can share a millisecond): a sequence per entry.
ALTER TABLE wallet_entries ADD COLUMN seq bigserial;
DROP INDEX IF EXISTS wallet_entries_user;
CREATE INDEX wallet_entries_user_seq ON wallet_entries (user_id, seq DESC);
