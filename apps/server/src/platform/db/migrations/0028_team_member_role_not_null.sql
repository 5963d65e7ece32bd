-- Every team member has a role (the drizzle table and every insert say so); the column was created
-- nullable in 0007. Found by the schema-drift test (ADR 0033). A member without one becomes a viewer.
UPDATE team_members SET role = 'viewer' WHERE role IS NULL;
ALTER TABLE team_members ALTER COLUMN role SET NOT NULL;
