export { createBridgeClient, PROTOCOL, NAMESPACE } from './client.js';
export { cleanPayload, PayloadError } from './clean.js';
export { newRequestId } from './ids.js';
export { readRefusal } from './refusal.js';
export { createSeqTracker, pushKey } from './seq.js';
