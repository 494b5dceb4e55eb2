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
