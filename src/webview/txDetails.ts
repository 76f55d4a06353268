// Browser code of the transaction details webview. Filled in by the transactions feature.
export {};
