/** The language-model tools share one budget per session, then ask; their errors reach the model inert. */
import assert from 'node:assert/strict';
import { MAX_TOOL_ERROR_CHARS, toolErrorText } from '../../../src/core/assistant/answerText';
import {
  TOOL_BUDGET_REQUESTS,
  TOOL_BUDGET_WINDOW_MS,
  ToolSessionBudget,
  callKey,
} from '../../../src/core/assistant/toolBudget';
import { preparedInvocation } from '../../../src/core/assistant/toolCosts';
import { latestEventsCost } from '../../../src/core/usage/costs';

/** A clock the test moves by hand. */
function clock(): { now: () => number; advance(ms: number): void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe('language-model tools: one request budget per session, then they ask', () => {
  it('a looping model spends at most the budget before the user is asked', () => {
    const c = clock();
    const budget = new ToolSessionBudget(c.now);
    const cost = latestEventsCost(10); // a small call: no cost question of its own
    const key = callKey('alephium_recentEvents', { contract: 'Counter', count: 10 });
    let ran = 0;
    // Bounded: a model asking 1,000 times in a row.
    for (let i = 0; i < 1000; i++) {
      if (budget.exceeds(cost)) break;
      assert.ok(budget.spend(key, cost));
      ran++;
    }
    assert.ok(ran * cost.max <= TOOL_BUDGET_REQUESTS, `${ran} calls of up to ${cost.max}`);
    assert.ok((ran + 1) * cost.max > TOOL_BUDGET_REQUESTS);
    // The next call is not run unless its confirmation was shown and accepted.
    assert.equal(budget.spend(key, cost), false);
    assert.equal(budget.spent(), ran * cost.max, 'a refused call spends nothing');
    const prepared = preparedInvocation('Reading the latest 10 events of Counter', cost, false, {
      overBudget: budget.question(cost),
    });
    assert.ok(prepared.confirmation, 'past the budget even a small call asks');
    assert.match(
      prepared.confirmation.message,
      new RegExp(`used ${ran * cost.max} of their ${TOOL_BUDGET_REQUESTS} requests in the last 10 minutes`),
    );
    budget.asked(key);
    assert.ok(budget.spend(key, cost), 'the call the user allowed runs');
    assert.equal(budget.spend(key, cost), false, 'one permission is one call');
  });

  it('the window slides: requests older than 10 minutes no longer count', () => {
    const c = clock();
    const budget = new ToolSessionBudget(c.now);
    const cost = { min: 10, max: 10 };
    for (let i = 0; i < 5; i++) assert.ok(budget.spend('k', cost));
    assert.ok(budget.exceeds(cost));
    c.advance(TOOL_BUDGET_WINDOW_MS - 1);
    assert.ok(budget.exceeds(cost));
    c.advance(1);
    assert.equal(budget.spent(), 0);
    assert.ok(!budget.exceeds(cost));
  });

  it('decoding (no request) is never held back by the budget', () => {
    const budget = new ToolSessionBudget(clock().now, 1);
    assert.ok(budget.spend('a', { min: 1, max: 1 }));
    assert.ok(!budget.exceeds({ min: 0, max: 0 }));
    assert.ok(budget.spend('b', { min: 0, max: 0 }));
  });
});

describe('language-model tools: errors reach the model through the inert-text owner', () => {
  it('a hostile gateway detail loses its link and control characters, and is capped', () => {
    const hostile = `[Open](command:workbench.action.terminal.sendSequence)\u202e\u0007 ${'x'.repeat(50_000)}`;
    const text = toolErrorText(new Error(hostile));
    assert.ok(!text.includes(']('), text.slice(0, 80));
    assert.ok(!/[\u202e\u0007]/.test(text));
    assert.ok(text.length <= MAX_TOOL_ERROR_CHARS + 40, `${text.length} characters`);
  });
});
