/** Artifacts and deployments of a Ralph project: content in, models out. Plain Node; never imports 'vscode'. */
export * from './errors';
export * from './vals';
export * from './artifact';
export * from './deployments';
export * from './registry';
export * from './events';
export * from './typeSyntax';
