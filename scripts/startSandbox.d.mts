import type { SandboxInfo } from '../sandbox';

export const START_PROFILE: string;
/** The parts of the sandbox's startup line that `npm start`'s workspace is written from. */
export function prepareStartWorkspace(
  info: Pick<SandboxInfo, 'baseUrl' | 'slug' | 'contracts'> & {
    apiKeys: Pick<SandboxInfo['apiKeys'], 'free'>;
    accounts: Pick<SandboxInfo['accounts'][number], 'address' | 'privateKey'>[];
  },
  dir: string,
): { workspace: string; secretsFile: string };
