/**
 * The wire between apps/server and apps/web: WebSocket messages and HTTP shapes. Both sides import
 * these types; nothing here runs I/O.
 */
export {};
