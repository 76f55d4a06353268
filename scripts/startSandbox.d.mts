export const START_PROFILE: string;
export function prepareStartWorkspace(
  info: {
    baseUrl: string;
    slug: string;
    apiKeys: { free: string };
    accounts: { address: string; privateKey: string }[];
    contracts: {
      name: string;
      address: string;
      contractId: string;
      groupIndex: number;
      codeHash: string;
      deployTxId: string;
    }[];
  },
  dir: string,
): { workspace: string; secretsFile: string };
