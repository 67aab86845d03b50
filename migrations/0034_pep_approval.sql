-- A politically exposed person found by the screening is not refused but watched (LFPIORPI Art. 18 VIII and X; RCG
-- Art. 23 Ter 5: a PEP of high risk needs the approval of a directivo or equivalent to operate): the approval is
-- recorded on the client's `person_match` alert of level `pep` (PATCH /projects/{id}/alerts/{alertId}
-- `{"approval": {"by": ...}}`), with who gave it, when, and which key recorded it.
ALTER TABLE alerts ADD COLUMN approval jsonb;
