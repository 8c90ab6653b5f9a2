/**
 * Credentials the local emulators accept (DynamoDB Local, the local SQS: they
 * check their shape only), for the local stack and the CLI pointed at it: a
 * new object each time, because the SDK writes into the credentials a client
 * is given (`$source`), which a configuration's schema refuses.
 */
export const localCredentials = () => ({ accessKeyId: 'local', secretAccessKey: 'local' });
