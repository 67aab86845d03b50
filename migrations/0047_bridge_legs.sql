-- Bridge legs: the events in which a bridge takes value on one chain (`out`: a deposit, a burn, an OFT send) or
-- delivers it on another (`in`: a fill, a mint, an OFT receive), as the indexer decodes them
-- (src/chains/indexer/bridge-events.ts). The two legs of one crossing share `protocol` and `pair_key` (Across:
-- origin chain id and deposit id; Circle CCTP: source domain and nonce; LayerZero OFT: the message guid), so a
-- crossing is paired by an equality join whichever leg was indexed first. Written with the batch that holds the
-- event and unwound with it on a reorg.
CREATE TABLE bridge_legs (
  chain_id integer NOT NULL,
  tx_hash text NOT NULL,
  log_index integer NOT NULL,
  block_number numeric NOT NULL,
  block_time timestamptz NOT NULL,
  protocol text NOT NULL,
  direction text NOT NULL CHECK (direction IN ('out', 'in')),
  pair_key text NOT NULL,
  -- the contract that emitted the event
  contract text NOT NULL,
  -- out: who deposited; in: the depositor as the fill states it (Across), or the sending contract (CCTP)
  sender text NOT NULL,
  recipient text NOT NULL,
  -- the asset on this chain: the token deposited or burnt (out), the token delivered or minted (in)
  token text NOT NULL,
  amount numeric NOT NULL,
  -- the other end as the protocol names it (a chain id, a CCTP domain, a LayerZero endpoint id), and the chain
  -- this service knows by that name, when it knows one
  other_ref text NOT NULL,
  other_chain_id integer,
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE INDEX bridge_legs_pair ON bridge_legs (protocol, pair_key);
CREATE INDEX bridge_legs_sender ON bridge_legs (chain_id, sender);
CREATE INDEX bridge_legs_recipient ON bridge_legs (chain_id, recipient);

-- Which addresses have bridge legs on a chain (their deposits' senders, their deliveries' recipients), set where the
-- legs are written: the graph expansion reads it with each counterparty's other facts and asks for the bridge legs
-- of only those addresses, so that an analysis of an address that never bridged pays no statement for bridges. A
-- reorg that unwinds a leg leaves the mark (the address is then asked once more, for nothing).
ALTER TABLE address_facts ADD COLUMN bridged boolean NOT NULL DEFAULT false;

-- Read from the covering key, as the expansion reads the other facts (migrations 0009 and 0017).
ALTER TABLE address_facts
  DROP CONSTRAINT address_facts_pkey,
  ADD CONSTRAINT address_facts_pkey PRIMARY KEY (chain_id, address)
    INCLUDE (is_contract, first_seen_at, transfers_out, transfers_in, bridged);
