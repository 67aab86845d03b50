// The bridges' event topics, for readers that only pick bridge logs out (the ethereum-etl import's parsing
// worker); decoding them is the indexer's (src/chains/indexer/bridge-events.ts, through src/chains/index.ts).
export { BRIDGE_TOPIC_LIST, BRIDGE_TOPICS } from "./topics.ts";
