-- Mexico's UMA as INEGI publishes it each January in the DOF (Ley para Determinar el Valor de la Unidad de Medida y
-- Actualización, Arts. 4 and 5): the daily, monthly and annual values of a year, in force from 1 February to 31
-- January of the next, imported with `vigia import uma` so that a new year needs no release. The years Vigía ships
-- with stay in src/jurisdictions/mx/uma.ts; an import adds the years after them.
CREATE TABLE uma_values (
  year integer PRIMARY KEY,
  daily numeric(12, 2) NOT NULL,
  monthly numeric(12, 2) NOT NULL,
  annual numeric(14, 2) NOT NULL,
  -- the day the DOF published it, and where it was read
  dof_date date NOT NULL,
  source text NOT NULL,
  imported_at timestamptz NOT NULL
);
