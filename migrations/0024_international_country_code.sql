-- The international rules' laws are notified with countryCode "XB" (their rule book's code, in ISO 3166's
-- user-assigned range), no longer null: the contract says a string, and clients of the original service read one
-- (docs/decisions/0027-cut-over-from-the-original.md). Messages queued before this change carry null; they are
-- given the code here, so that a retry or a redelivery sends what a new message would. Bodies are stored as
-- JSON.stringify wrote them, so the field appears exactly in this form, and only in the laws of a notification.
UPDATE notifications
SET body = replace(body, '"countryCode":null', '"countryCode":"XB"')
WHERE type = 'notification' AND body LIKE '%"countryCode":null%';
