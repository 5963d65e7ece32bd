-- Keyset pages for long lists (ADR 0042): every page of the trash costs what the first does.
-- Each kind of item in a user's trash, newest deletion first, with the id as tie-break.
CREATE INDEX datasets_trash_keyset ON datasets (user_id, deleted_at DESC, id DESC) WHERE deleted_at IS NOT NULL;
CREATE INDEX projects_trash_keyset ON projects (user_id, deleted_at DESC, id DESC) WHERE deleted_at IS NOT NULL;
CREATE INDEX models_trash_keyset ON models (user_id, deleted_at DESC, id DESC) WHERE deleted_at IS NOT NULL;
