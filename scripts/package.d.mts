export const MARKETPLACE_PAGE: string;
export function repositoryWebUrl(): string;
export function pinnedBaseUrls(version?: string): { images: string; content: string };
export function packageExtension(options?: { out?: string; typeCheck?: boolean }): {
  out: string;
  output: string;
};
