-- The data of a person who tried to operate without being a client (Reglamento de la LFPIORPI Art. 7 Bis: the aviso
-- carries only the data that identify who tried to operate as a client), in the form of an integrator's profile: the
-- reports write the aviso's file from it when the integrator has no profile of that user.
ALTER TABLE avisos ADD COLUMN prospect jsonb;
