// Runs /play's reducer (src/domino_api/play/reducer.js) in node over recorded views and events:
// each line of the file named on the command line is {"view", "events"}; each line written out
// is the view after applying the events in order, or null where the page would read the view
// again (`canApply`; tests/clients/test_reducer_property.py compares it with the view the
// server served next).
import { readFile } from "node:fs/promises";
import { applyEvent, canApply } from "../src/domino_api/play/reducer.js";

const lines = (await readFile(process.argv[2], "utf8")).split("\n").filter(Boolean);
for (const line of lines) {
  let { view, events } = JSON.parse(line);
  for (const event of events) {
    if (!canApply(view, event)) {
      view = null;
      break;
    }
    view = applyEvent(view, event);
  }
  process.stdout.write(JSON.stringify(view) + "\n");
}
