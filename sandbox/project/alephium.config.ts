// Project configuration for the sandbox's Ralph project. `npm start` opens this folder as the workspace;
// the artifacts under artifacts/ are what the extension decodes events and state with.
const configuration = {
  sourceDir: 'contracts',
  artifactDir: 'artifacts',
  networks: {
    devnet: {
      nodeUrl: 'http://127.0.0.1:22973',
      networkId: 4,
      privateKeys: [],
    },
  },
  compilerOptions: {
    errorOnWarnings: true,
    ignoreUnusedConstantsWarnings: true,
  },
};

export default configuration;
