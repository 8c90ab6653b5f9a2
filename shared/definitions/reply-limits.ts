/**
 * The largest reply as stored and sent: its HTML, which plain text becomes
 * only once escaped (`"` is six bytes then), lives in one message item, and
 * DynamoDB caps an item at 400 KB. Zod-free: the reply's schema refuses a
 * larger one with the request's other problems, and the domain holds it again.
 */
export const MAX_REPLY_HTML_BYTES = 300 * 1024;
