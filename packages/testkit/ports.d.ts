/** A TCP port on `host` (default 127.0.0.1) that the OS reported free a moment ago. */
export declare function freePort(host?: string): Promise<number>;
