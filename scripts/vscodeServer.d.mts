export const CODE_SERVER_VERSION: string;
export const VSCODE_VERSION: string;
export interface StartedServer {
  url: string;
  port: number;
  pid: number;
  logFile: string;
  stop(): void;
}
export function ensureServerInstalled(): void;
export function startServer(options?: { extensionsDir?: string; logFile?: string }): Promise<StartedServer>;
