/**
 * Rendering the transaction details page (dist/webview/txDetails.js, production build) for a synthetic
 * transaction with 200 inputs and 200 outputs, in headless Chromium: a local page with a `#root`, the
 * page's stylesheet and a stub of `acquireVsCodeApi` (no CSP, no VS Code around it). The host's `render`
 * message is dispatched synchronously; `render` ends by posting `rendered` with `root.innerText`, which
 * forces style and layout, so "render" includes layout; "first frame" waits for the next two animation
 * frames (painted). Each run is a fresh page. When the bundle does not answer `rendered`, the page is not
 * there yet and the figure is reported as pending.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../scripts/browser.mjs';
import type { TxDetailsModel, TxOutputView } from '../src/core/transactions/txDetailsProtocol';
import { root } from './bundle';
import { figure, log, type Figure } from './lib/stats';

const N = 200;

function hex(i: number, bytes = 32): string {
  return (i.toString(16) + 'ab'.repeat(bytes)).slice(0, bytes * 2);
}

/** Base58-looking placeholder addresses (the page renders them as text only). */
function address(i: number): string {
  return `1${'DrDyTr9RpRsQnDnXo2YRiPzPW4ooHX5LLoqXrqfMrpQH'.slice(0, 38)}${i.toString(36).padStart(5, 'x')}`;
}

export function syntheticModel(): TxDetailsModel {
  const outputs: TxOutputView[] = Array.from({ length: N }, (_, i) => ({
    index: i,
    address: address(1000 + i),
    amount: { alph: `${i}.000000000000000001`, atto: `${i}000000000000000001` },
    tokens: i % 5 === 0 ? [{ id: hex(i), amount: String(i * 1000) }] : [],
    ...(i % 20 === 0 ? { lockedUntil: new Date(Date.UTC(2030, 0, 1)).toISOString() } : {}),
    ...(i % 25 === 0 ? { messageHex: '68656c6c6f', messageText: 'hello' } : {}),
    isChange: i === N - 1,
  }));
  return {
    kind: 'transaction',
    txId: hex(7),
    status: { kind: 'confirmed', text: 'Confirmed (3 confirmations)', confirmations: 3, blockHash: hex(9) },
    chain: { fromGroup: 0, toGroup: 1 },
    networkId: 4,
    gas: { amount: 200_000, priceAtto: '100000000000', fee: { alph: '0.02', atto: '20000000000000000' } },
    inputs: Array.from({ length: N }, (_, i) => ({
      outputRefKey: hex(5000 + i),
      hint: i,
      ...(i % 2 === 0 ? { address: address(i) } : {}),
      unlockType: i % 2 === 0 ? 'P2PKH' : 'SameAsPrevious',
    })),
    outputs,
    contractInputs: [],
    generatedOutputs: [],
    balanceChanges: Array.from({ length: N / 2 }, (_, i) => ({
      address: address(i * 2),
      alph: `-${i}.5`,
      atto: `-${i}500000000000000000`,
      tokens: [],
    })),
    inputSignatures: Array.from({ length: N / 2 }, (_, i) => hex(i, 64)),
    scriptSignatures: [],
    hasScript: false,
    events: [],
    notes: [],
    raw: '{}',
    updatedAt: new Date(Date.UTC(2025, 5, 10)).toISOString(),
  };
}

export interface WebviewRun {
  readonly renderMs: number;
  readonly frameMs: number;
  readonly rows: number;
}

export async function webviewBench(
  runs: number,
): Promise<{ figures: Figure[]; raw: WebviewRun[]; pending?: string }> {
  const bundle = path.join(root, 'dist', 'webview', 'txDetails.js');
  const bench = 'webview tx details (200 in / 200 out)';
  const pending = (why: string) => {
    log(`webview: pending (${why})`);
    return { figures: [], raw: [], pending: why };
  };
  if (!fs.existsSync(bundle)) return pending('dist/webview/txDetails.js is not built');
  const script = fs.readFileSync(bundle, 'utf8');
  const cssFile = path.join(root, 'media', 'txDetails.css');
  const css = fs.existsSync(cssFile) ? fs.readFileSync(cssFile, 'utf8') : '';
  const model = syntheticModel();
  let browser: Browser | undefined;
  const raw: WebviewRun[] = [];
  try {
    browser = await launchBrowser();
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      try {
        await page.setContent(
          `<!doctype html><html><head><style>${css}</style></head><body><div id="root"></div></body></html>`,
        );
        // Browser-side code as strings: this project's tsconfig has no DOM library.
        await page.evaluate(`(() => {
          window.__posted = [];
          let saved;
          window.acquireVsCodeApi = () => ({
            postMessage: (m) => window.__posted.push(m),
            getState: () => saved,
            setState: (s) => (saved = s),
          });
        })()`);
        await page.addScriptTag({ content: script });
        const result = await page.evaluate<{
          renderMs: number;
          frameMs: number;
          rendered: boolean;
          rows: number;
        }>(
          `(async () => {
            const model = ${JSON.stringify(model)};
            const t0 = performance.now();
            window.dispatchEvent(
              new MessageEvent('message', { data: { type: 'render', model, state: { txId: model.txId } } }),
            );
            const renderMs = performance.now() - t0;
            await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
            const frameMs = performance.now() - t0;
            return {
              renderMs,
              frameMs,
              rendered: window.__posted.some((p) => p.type === 'rendered'),
              rows: document.querySelectorAll('tr').length,
            };
          })()`,
        );
        if (!result.rendered) return pending('the page does not answer a render message with "rendered" yet');
        log(`webview run ${i + 1}: ${JSON.stringify(result)}`);
        raw.push({ renderMs: result.renderMs, frameMs: result.frameMs, rows: result.rows });
      } finally {
        await page.close();
      }
    }
  } finally {
    await browser?.close().catch(() => undefined);
  }
  return {
    raw,
    figures: [
      figure(
        bench,
        'render incl. style + layout',
        'ms',
        raw.map((r) => r.renderMs),
        {
          note: `${raw[0]?.rows ?? 0} table rows`,
        },
      ),
      figure(
        bench,
        'until the next painted frame',
        'ms',
        raw.map((r) => r.frameMs),
      ),
    ],
  };
}
