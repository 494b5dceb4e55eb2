import { vi } from 'vitest';

type Send = (url: string, init: RequestInit) => Promise<Response>;

/**
 * A stand-in for XMLHttpRequest that hands each request to `send` (the same fetch mock the test
 * uses), reports upload progress at 50% before the answer and 100% after, then fires `load`.
 */
export function installFakeXhr(send: Send) {
  class FakeXhr {
    readonly upload = new EventTarget();
    private readonly events = new EventTarget();
    private method = 'GET';
    private url = '';
    private readonly headers: Record<string, string> = {};
    private responseHeaders = '';
    status = 0;
    statusText = '';
    response: Blob | null = null;
    responseType = '';
    withCredentials = false;

    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    addEventListener(type: string, listener: EventListener) {
      this.events.addEventListener(type, listener);
    }
    getAllResponseHeaders() {
      return this.responseHeaders;
    }
    abort() {
      this.events.dispatchEvent(new Event('abort'));
    }
    send(body: XMLHttpRequestBodyInit | null) {
      const progress = (loaded: number) =>
        this.upload.dispatchEvent(new ProgressEvent('progress', { lengthComputable: true, loaded, total: 100 }));
      progress(50);
      void send(this.url, { method: this.method, headers: this.headers, body }).then(
        async (response) => {
          progress(100);
          this.status = response.status;
          this.statusText = response.statusText;
          this.responseHeaders = [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\r\n');
          this.response = await response.blob();
          this.events.dispatchEvent(new Event('load'));
        },
        () => this.events.dispatchEvent(new Event('error')),
      );
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
}
