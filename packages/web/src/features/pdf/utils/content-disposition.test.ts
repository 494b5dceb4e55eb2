import { describe, expect, it } from 'vitest';
import { filenameFromContentDisposition as parse } from './content-disposition';

describe('filenameFromContentDisposition', () => {
  it('reads a quoted filename, with escapes', () => {
    expect(parse('attachment; filename="demo-1.pdf"')).toBe('demo-1.pdf');
    expect(parse('attachment; filename="a \\"quoted\\" name.pdf"')).toBe('a "quoted" name.pdf');
    expect(parse('attachment; filename="semi;colon.pdf"')).toBe('semi;colon.pdf');
  });

  it('reads a bare filename', () => {
    expect(parse('attachment; filename=report.pdf')).toBe('report.pdf');
  });

  it("prefers filename*=UTF-8''… and decodes it", () => {
    expect(parse(`attachment; filename="fallback.pdf"; filename*=UTF-8''na%C3%AFve%20r%C3%A9sum%C3%A9.pdf`)).toBe(
      'naïve résumé.pdf',
    );
    expect(parse(`attachment; filename*=utf-8'en'%E2%82%AC%20rates.pdf`)).toBe('€ rates.pdf');
    expect(parse(`attachment; filename*=ISO-8859-1''caf%E9.pdf`)).toBe('café.pdf');
  });

  it('falls back to filename when filename* is malformed, and never returns a path', () => {
    expect(parse(`attachment; filename*=UTF-8''%E0%A4%A; filename="ok.pdf"`)).toBe('ok.pdf');
    expect(parse('attachment; filename="../../etc/passwd"')).toBe('passwd');
  });

  it('returns null when there is no file name', () => {
    expect(parse(null)).toBeNull();
    expect(parse('inline')).toBeNull();
    expect(parse('attachment; filename=""')).toBeNull();
  });
});
