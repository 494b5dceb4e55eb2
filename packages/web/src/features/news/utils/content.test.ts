import { describe, expect, it } from 'vitest';
import { linkify, toParagraphs } from './content';

describe('toParagraphs', () => {
  it('splits on blank lines and keeps the line breaks inside a paragraph', () => {
    expect(toParagraphs('One\r\ntwo\n\n\n  \nThree\n')).toEqual([['One', 'two'], ['Three']]);
    expect(toParagraphs('\n\n')).toEqual([]);
  });
});

describe('linkify', () => {
  it('links http and https addresses, leaving the text around them', () => {
    expect(linkify('See https://example.org/a?b=1 and http://x.test.')).toEqual([
      { text: 'See ' },
      { text: 'https://example.org/a?b=1', href: 'https://example.org/a?b=1' },
      { text: ' and ' },
      { text: 'http://x.test', href: 'http://x.test/' },
      { text: '.' },
    ]);
  });

  it('keeps trailing punctuation and unbalanced brackets out of the link', () => {
    expect(linkify('(https://example.org/wiki/A_(b)), ok!')).toEqual([
      { text: '(' },
      { text: 'https://example.org/wiki/A_(b)', href: 'https://example.org/wiki/A_(b)' },
      { text: '), ok!' },
    ]);
    expect(linkify('Really? https://example.org/x?!').map((piece) => piece.text)).toEqual([
      'Really? ',
      'https://example.org/x',
      '?!',
    ]);
  });

  it('ends a link before the punctuation of other scripts, and keeps their quotation marks in pairs', () => {
    const linked = (line: string) => linkify(line).filter((piece) => piece.href !== undefined);
    expect(linkify('See https://example.org/a…')).toEqual([
      { text: 'See ' },
      { text: 'https://example.org/a', href: 'https://example.org/a' },
      { text: '…' },
    ]);
    expect(linkify('«https://example.org/x»')).toEqual([
      { text: '«' },
      { text: 'https://example.org/x', href: 'https://example.org/x' },
      { text: '»' },
    ]);
    expect(linkify('https://example.jp/ページです。次').map((piece) => piece.text)).toEqual([
      'https://example.jp/ページです',
      '。次',
    ]);
    for (const stop of '…»›‹„—–”’」』）】。、，！？：；＃／') {
      expect(linked(`https://example.org/a${stop}b`).map((piece) => piece.text)).toEqual(['https://example.org/a']);
    }
    expect(linked('「https://example.jp/a」です').map((piece) => piece.text)).toEqual(['https://example.jp/a']);
    expect(linked('See “https://example.org/a” here').map((piece) => piece.text)).toEqual(['https://example.org/a']);
    expect(linked('https://example.org/a’s page').map((piece) => piece.text)).toEqual(['https://example.org/a']);
    expect(linked('（https://example.jp/a）。').map((piece) => piece.text)).toEqual(['https://example.jp/a']);
    // Pairs the address opened stay in it, as ( ) do.
    for (const url of [
      'https://example.org/«a»',
      'https://example.jp/「a」b',
      'https://example.jp/（a）',
      'https://example.org/“a”',
    ]) {
      expect(linked(`(${url})`).map((piece) => piece.text)).toEqual([url]);
    }
  });

  it('leaves an address with a user name before its host, or a bidirectional control, as text', () => {
    for (const line of [
      'https://bank.example@evil.test/login',
      'https://user:pw@example.org/',
      'https://@evil.test/',
      'https://example.org/\u202Egnp.exe',
      'https://exa\u2066mple.org/',
      'https://example.org/a\u2069',
    ]) {
      expect(linkify(line)).toEqual([{ text: line }]);
    }
    // An @ after the host is only part of the path.
    expect(linkify('https://example.org/@ann')).toEqual([
      { text: 'https://example.org/@ann', href: 'https://example.org/@ann' },
    ]);
  });

  it('gives a link its real target as a title when the text writes the host otherwise', () => {
    expect(linkify('https://bücher.example/a')).toEqual([
      {
        text: 'https://bücher.example/a',
        href: 'https://xn--bcher-kva.example/a',
        title: 'https://xn--bcher-kva.example/a',
      },
    ]);
    expect(linkify('http://0x7f.1/')[0]).toMatchObject({ href: 'http://127.0.0.1/', title: 'http://127.0.0.1/' });
    for (const same of [
      'https://Example.ORG/Path',
      'https://example.org:8080/',
      'http://[::1]/',
      'https://xn--bcher-kva.example/',
    ]) {
      expect(linkify(same)[0]).not.toHaveProperty('title');
    }
  });

  it('never links other schemes or half addresses', () => {
    for (const line of [
      'javascript:alert(1)',
      'JavaScript://example.org/%0aalert(1)',
      'data:text/html,<b>x</b>',
      'ftp://example.org',
      'https://',
      'xhttp://example.org',
    ]) {
      expect(linkify(line)).toEqual([{ text: line }]);
    }
  });
});
