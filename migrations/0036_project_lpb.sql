-- The UIF's Lista de Personas Bloqueadas is delivered to each obligated subject, not published: an `mx-lpb` list
-- belongs to the project that imported it (`vigia lists import mx-lpb FILE --project N`), and no other project's
-- screening reads it. The other kinds (OFAC, UN, SAT, OpenSanctions) stay service-wide (project_id null). One current
-- version per kind and project.
ALTER TABLE person_lists ADD COLUMN project_id integer REFERENCES projects (id) ON DELETE CASCADE;
DROP INDEX person_lists_one_current;
CREATE UNIQUE INDEX person_lists_one_current ON person_lists (kind, COALESCE(project_id, 0)) WHERE current;
-- An LPB imported before lists were per project: the project's when the service has only one; otherwise it is read
-- by no project until each imports its own (docs/person-lists.md, "Upgrading").
UPDATE person_lists SET project_id = (SELECT min(id) FROM projects)
  WHERE kind = 'mx-lpb' AND (SELECT count(*) FROM projects) = 1;
