-- Tokens whose USD value is fixed by the law rules' convention rather than a market price: a stablecoin such as
-- USDT on Tron is valued at USD 1 (docs/regulation.md, "Valuing transfers"). `pegged_usd` is that value; a day's
-- price in `prices`, when one is imported, still wins. Written from the chain registry's `pegged_tokens` at start
-- (src/chains/native-decimals.ts); the ledger's USD formula reads COALESCE(price, pegged_usd).
ALTER TABLE tokens ADD COLUMN pegged_usd numeric;
