/**
 * How VS Code runs this extension, read once at activation, for the rule of core/signing/confirmPolicy.ts:
 * a command's arguments act for the user (skip a confirmation, touch a key) only in the extension's own
 * test runs. Every command that takes such an argument asks {@link argumentsMayActForUser}.
 */
import * as vscode from 'vscode';
import { argumentsActForUser, type RunMode } from '../core/signing/confirmPolicy';

let mode: RunMode = 'production';

export function setRunMode(extensionMode: vscode.ExtensionMode): void {
  mode =
    extensionMode === vscode.ExtensionMode.Test
      ? 'test'
      : extensionMode === vscode.ExtensionMode.Development
        ? 'development'
        : 'production';
}

export function runMode(): RunMode {
  return mode;
}

/** Whether this run lets a command's arguments act for the user (only the extension's tests). */
export function argumentsMayActForUser(): boolean {
  return argumentsActForUser(mode);
}
