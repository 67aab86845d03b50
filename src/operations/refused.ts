// An operator command refused because of how it was called or what it found (the service still running, a store
// that is not empty, a damaged file): `vigia` prints the message and exits 2, having changed nothing.
export class OperationRefused extends Error {}
