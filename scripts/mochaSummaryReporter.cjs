// Mocha's spec reporter plus a JSON summary (passed/failed/pending) written to $ALEPHIUM_TEST_RESULTS,
// which scripts/test-all.mjs gathers into one closing line for the whole run.
const fs = require('node:fs');
const Mocha = require('mocha');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.ALEPHIUM_TEST_RESULTS;
      if (!file) return;
      const { passes, failures, pending } = runner.stats;
      fs.writeFileSync(file, JSON.stringify({ passed: passes, failed: failures, pending }));
    });
  }
}

module.exports = SummaryReporter;
