// The Spanish of a wallet report's risk: the reason, each pattern's description and the words of the risk model.
// They are the verdict's own words, written where the verdict is (src/analysis/words.ts) from the one message
// catalog (src/messages), so that the API's answers in Spanish and the report say the same.
export {
  categoryEs,
  directionEs,
  exposureEs,
  findingEs,
  labelsOfVerdict,
  levelEs,
  patternEs,
  reasonEs,
  severityEs,
} from "../analysis/index.ts";
