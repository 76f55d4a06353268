import type { Browser } from 'playwright-core';
export function workbenchUrl(
  server: { url: string; port: number },
  options: { folder: string; testsPath?: string },
): string;
export function launchBrowser(): Promise<Browser>;
export function makeTestWorkspace(): string;
