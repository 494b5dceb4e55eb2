// The three demo PDFs seeded on first start (ids 1, 2, 3), and a large PDF for the benchmark.
// Same code, same bytes: every date is fixed, so ETags stay stable across starts and machines.
import { rgb } from 'pdf-lib';
import { A4, drawChrome, newDocument, PageWriter, type Theme } from './demo-pdf-layout.js';

export interface DemoPdf {
  id: number;
  fileName: string;
  title: string;
  bytes: Uint8Array;
}

const TEAL: Theme = { accent: rgb(0.05, 0.42, 0.45), tint: rgb(0.88, 0.95, 0.95) };
const INDIGO: Theme = { accent: rgb(0.22, 0.25, 0.52), tint: rgb(0.91, 0.92, 0.97) };
const ORANGE: Theme = { accent: rgb(0.78, 0.33, 0.1), tint: rgb(0.99, 0.93, 0.87) };

async function welcomeGuide(): Promise<Uint8Array> {
  const title = 'Welcome guide';
  const { doc, fonts } = await newDocument(title, 'How to get started with Hello all!');
  new PageWriter(doc, fonts, TEAL)
    .heading('Welcome to Hello all!', 20)
    .paragraph(
      'Hello all! is the notice board of our neighbourhood: a place to read what is happening nearby, to share news of your own and to find the documents everyone needs. This guide takes five minutes to read and covers everything you need on your first day.',
    )
    .heading('Getting started')
    .list(
      [
        'Register with your e-mail address and a password of at least eight characters. You are signed in straight away.',
        'Open Local news to see the latest items, newest first. Use "refresh this page" to look for new ones.',
        'Add a news item with a title, a few lines of text and, if you like, photos or documents. A progress bar shows the upload.',
        'Visit the PDF pages to read, download or print the documents of the community, such as this guide.',
      ],
      { numbered: true },
    )
    .box('Tip', [
      'Forgot your password? Choose "Reset password" on the login page. We e-mail you a link that works once and expires after an hour.',
    ])
    .heading('What you will find here')
    .paragraph(
      'Local news is written by people who live here: the market, the school, lost cats, road works and the odd festival. Everyone who is signed in can read it and add to it. Be kind, be accurate, and add a photo when it helps.',
    )
    .illustration('Our neighbourhood, from the canal bridge.', 150, 1);
  new PageWriter(doc, fonts, TEAL)
    .heading('Your account')
    .paragraph(
      'Your profile holds your name, telephone numbers and website. Only you can change them, from the Profile page. Your e-mail address is your user name and cannot be changed there.',
    )
    .paragraph(
      'Choose a password that is not a common word and not entirely made of digits. When you change it, every other device you were signed in on is signed out, so a lost phone cannot keep reading your account.',
    )
    .heading('Where to find things')
    .table(
      ['Page', 'What it is for'],
      [
        ['Local news', 'Read the latest items and refresh the list.'],
        ['Add news', 'Write an item and attach photos or documents.'],
        ['Profile', 'Your name, telephone, mobile and website.'],
        ['Change password', 'A new password; other devices are signed out.'],
        ['PDF viewer', 'Read a document page by page with Prev and Next.'],
        ['Download PDF', 'Save a document to your device.'],
        ['Print PDF', 'Send a document straight to your printer.'],
      ],
      [0.3, 0.7],
    )
    .heading('Keyboard and screen readers')
    .paragraph(
      'Every button and form field can be reached with the Tab key and has a label that screen readers announce. Error messages appear next to the field they concern and once more at the top of the form.',
    )
    .box('Need a hand?', [
      'Ask at the community centre on Tuesdays between 10:00 and 12:00, or write to help@hello-all.example.',
    ]);
  drawChrome(doc, fonts, TEAL, title, 'Getting started');
  return doc.save();
}

async function privacyNotice(): Promise<Uint8Array> {
  const title = 'Privacy notice';
  const { doc, fonts } = await newDocument(title, 'What Hello all! keeps about you, why, and for how long');
  new PageWriter(doc, fonts, INDIGO)
    .heading('Who we are', 18)
    .paragraph(
      'Hello all! is run by volunteers of the neighbourhood association. This notice explains what we keep about you when you use the site, why we keep it, for how long, and what you can ask of us. It was last updated on 5 January 2026.',
    )
    .heading('What we keep and why')
    .table(
      ['What', 'Why', 'How long'],
      [
        ['E-mail address', 'To sign you in and to send a password reset link.', 'Until you close your account.'],
        ['Password', 'Kept only as an argon2id hash; nobody can read it back.', 'Until you change it.'],
        ['Name, telephone, mobile, website', 'Shown on your profile, if you fill them in.', 'Until you remove them.'],
        [
          'News items and attachments',
          'Published to everyone who is signed in.',
          'Until you or a moderator delete them.',
        ],
        ['Sign-in sessions', 'To keep you signed in on each device.', '14 days, or until you sign out.'],
        ['Password reset requests', 'To check the link you were sent. Stored only as a hash.', 'One hour.'],
        ['Network address of failed sign-ins', 'To slow down people guessing passwords.', 'One hour.'],
      ],
      [0.3, 0.45, 0.25],
    )
    .box('What we never do', [
      'We do not sell or share your data, show advertising or use tracking cookies. The site stores one item in your browser: the token that keeps you signed in.',
    ]);
  new PageWriter(doc, fonts, INDIGO)
    .heading('How we keep it safe')
    .list([
      'Every page is served over an encrypted connection.',
      'Passwords and reset tokens are stored only as hashes.',
      'Changing or resetting your password signs out every other session.',
      'Repeated failed sign-ins from one address or for one account are slowed down.',
      'Attachments are stored under names we choose and are always downloaded, never run, by your browser.',
    ])
    .heading('Your rights')
    .paragraph(
      'You may ask for a copy of everything we keep about you, ask us to correct it, or ask us to delete your account and everything in it. We answer within one month. If you are not satisfied with our answer, you may complain to your data protection authority.',
    )
    .heading('Contact')
    .paragraph(
      'Write to privacy@hello-all.example or leave a letter at the community centre, 12 Market Square. Please do not send passwords by e-mail: we will never ask for them.',
    )
    .box('Changes to this notice', [
      'When we change this notice we say so in Local news at least two weeks before the change takes effect.',
    ]);
  drawChrome(doc, fonts, INDIGO, title, 'Updated 5 January 2026');
  return doc.save();
}

async function newsletter(): Promise<Uint8Array> {
  const title = 'Community newsletter';
  const { doc, fonts } = await newDocument(title, 'Issue 12, November 2026');
  const kicker = 'Issue 12  |  November 2026';
  new PageWriter(doc, fonts, ORANGE)
    .heading('A busy autumn in our neighbourhood', 21)
    .paragraph(
      'The leaves are down, the market is back and the community centre has a new roof. The market now runs every Saturday from 8:00 to 13:00. In this issue we list the events of the coming weeks and ask for a few more pairs of hands for the winter.',
      { size: 12.5 },
    )
    .contents('In this issue', [
      ['What is on this winter', 2],
      ['Volunteers wanted', 3],
      ['Letters to the editor', 3],
    ])
    .heading('From the editor')
    .paragraph(
      'Thank you to everyone who wrote in after the last issue. Your letters, photos and corrections make this newsletter what it is. We print two hundred copies for the library and the centre; everyone else can read it here, on Hello all!, where it is also easy to print a single page.',
    )
    .paragraph('As always, if something is missing, tell us. The deadline for the next issue is 15 December.', {
      font: fonts.italic,
    })
    .illustration('Market Square on a Saturday morning, seen from the library steps.', 190, 0);
  new PageWriter(doc, fonts, ORANGE)
    .heading('What is on this winter', 20)
    .table(
      ['Date', 'Event', 'Where'],
      [
        ['Sat 7 Nov', 'Apple pressing and cider tasting', 'Market Square'],
        ['Wed 11 Nov', 'Lantern walk for children (bring a lantern)', 'School gate, 17:30'],
        ['Sat 21 Nov', 'Repair cafe: clothes, toasters, bicycles', 'Community centre'],
        ['Thu 26 Nov', 'Open meeting on the new cycle lanes', 'Library hall, 19:30'],
        ['Sun 6 Dec', 'Winter market with choir', 'Market Square'],
        ['Sat 12 Dec', 'Tree planting along the canal path', 'Canal bridge, 10:00'],
        ['Thu 31 Dec', 'New Year bonfire', 'Old sports field'],
        ['Sat 16 Jan', 'Soup lunch for everyone', 'Community centre'],
      ],
      [0.2, 0.5, 0.3],
    )
    .heading('Good to know')
    .list([
      'The library opens until 20:00 on Thursdays from November.',
      'Green waste is collected every second Monday until the end of December.',
      'The community centre lends out tools, a ladder and a trailer: ask at the desk.',
    ])
    .heading('New bus times')
    .paragraph(
      'Line 7 runs every 20 minutes from the new stop in front of the library. Cut out this table for the fridge.',
    )
    .table(
      ['From the library', 'First bus', 'Last bus', 'Every'],
      [
        ['Monday to Friday', '6:10', '23:40', '20 min'],
        ['Saturday', '7:00', '23:40', '20 min'],
        ['Sunday and holidays', '8:30', '22:00', '40 min'],
      ],
      [0.4, 0.2, 0.2, 0.2],
    );
  new PageWriter(doc, fonts, ORANGE)
    .heading('Volunteers wanted', 20)
    .paragraph(
      'Winter is when help counts most. We are looking for people who can spare two hours a month for any of these:',
    )
    .list([
      'Shovelling snow from the paths of older neighbours on Bakery Lane and around the square.',
      'Driving to the Saturday market for people who cannot carry their shopping.',
      'Reading to children at the library on Wednesday afternoons.',
      'Helping newcomers to sign up on Hello all! and find their way around.',
    ])
    .heading('Letters to the editor')
    .paragraph(
      '"Thank you to whoever fixed the gate of the allotments. It had been hanging on one hinge since the spring." - Jonas, Canal Street',
      { font: fonts.italic },
    )
    .paragraph(
      '"Could the next issue say something about the new bus times? Many of us still have the old timetable on the fridge." - Ruth, Mill Road',
      { font: fonts.italic },
    )
    .paragraph('The new times are on page 2. Thank you both for writing!', { size: 10, color: rgb(0.4, 0.43, 0.48) })
    .box('Next issue', [
      'Deadline for articles, photos and letters: 15 December. Add them as a news item on Hello all! or leave them at the community centre.',
    ])
    .handForm(
      'I would like to help',
      ['Name', 'Telephone', 'Best time to call'],
      ['Snow', 'Driving', 'Reading', 'Newcomers'],
    );
  drawChrome(doc, fonts, ORANGE, title, kicker);
  return doc.save();
}

const DEMOS = [
  { id: 1, fileName: 'welcome-guide.pdf', title: 'Welcome guide', build: welcomeGuide },
  { id: 2, fileName: 'privacy-notice.pdf', title: 'Privacy notice', build: privacyNotice },
  { id: 3, fileName: 'community-newsletter.pdf', title: 'Community newsletter', build: newsletter },
] as const;

/** The demo PDFs, ids 1, 2, 3. Id 3 has three pages, each showing its number,
 * so the viewer's indicator reads `1 / 3` (docs/web-app.md, "Pages"). */
export async function buildDemoPdfs(): Promise<DemoPdf[]> {
  return Promise.all(DEMOS.map(async ({ build, ...meta }) => ({ ...meta, bytes: await build() })));
}

const WORDS = (
  'the market square opened again on saturday with stalls of bread cheese honey apples books and bicycles ' +
  'neighbours met under the lime trees while children ran around the fountain and the choir sang near the library ' +
  'volunteers carried shopping repaired toasters planted trees along the canal and cleared snow from quiet lanes'
).split(' ');

/**
 * A PDF of at least `targetBytes` (the benchmark uses ~5 MiB): numbered pages of deterministic
 * text. The body text goes into uncompressed content streams written directly, far faster than
 * drawing it with drawText and letting pdf-lib deflate it, which made the benchmark wait.
 */
export async function buildLargePdf(targetBytes: number): Promise<Uint8Array> {
  const { doc, fonts } = await newDocument('Large document', 'A long document for the benchmark');
  let seed = 12345;
  const nextWord = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return WORDS[(seed >>> 8) % WORDS.length]!;
  };
  const addPage = () => {
    const page = doc.addPage([A4.width, A4.height]);
    const bold = page.node.newFontDictionary(fonts.bold.name, fonts.bold.ref).asString();
    const regular = page.node.newFontDictionary(fonts.regular.name, fonts.regular.ref).asString();
    const lines = Array.from({ length: 70 }, () => Array.from({ length: 16 }, nextWord).join(' '));
    const body =
      `BT ${bold} 22 Tf 56 790 Td (Page ${doc.getPageCount()}) Tj ET\n` +
      `BT ${regular} 7.5 Tf 10 TL 56 760 Td\n${lines.map((l) => `(${l}) Tj T*`).join('\n')}\nET`;
    page.node.addContentStream(doc.context.register(doc.context.stream(body)));
  };
  addPage();
  const onePage = (await doc.save()).length;
  addPage();
  let bytes = await doc.save();
  const perPage = bytes.length - onePage;
  while (bytes.length < targetBytes) {
    const missing = Math.ceil((targetBytes - bytes.length) / perPage);
    for (let i = 0; i < missing; i++) addPage();
    bytes = await doc.save();
  }
  return bytes;
}
