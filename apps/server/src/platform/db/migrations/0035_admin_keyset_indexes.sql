-- Keyset pages for the admin's outbox (ADR 0042): newest mail first, the id as tie-break, so every
-- page costs what the first does.
CREATE INDEX mail_outbox_keyset ON mail_outbox (created_at DESC, id DESC);
