/** Beside the Ralph extension and the CLI: the CLI's tasks and the Ralph extension's offer. */
export { registerRalphTooling } from './ralphTooling';
