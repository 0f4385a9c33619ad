/**
 * The page of a share link (/s/{token}) shows no image from elsewhere: a remote image is a tracking pixel
 * that would see every reader's address and the moment they read. Each becomes a link to it, with its alt
 * text, that a reader may follow; data: images (inside the page already) stay.
 *
 * It runs on the exports renderer's output, which the sanitizer re-serialized: every real <img> is written
 * as `<img name="value" ...>` with its values escaped, and any `<` of text is `&lt;`, so the pattern
 * below sees exactly the page's images.
 */
const IMG = /<img((?: [a-z]+="[^"]*")*)>/g;
const ATTR = / ([a-z]+)="([^"]*)"/g;

export function withoutRemoteImages(html: string): string {
  return html.replace(IMG, (tag, attrs: string) => {
    const a: Record<string, string> = {};
    for (const [, name, value] of attrs.matchAll(ATTR)) a[name!] = value!;
    if (a.src === undefined) return '';
    if (/^data:/i.test(a.src)) return tag;
    const label = a.alt ? `[image: ${a.alt}]` : '[image]';
    return `<a href="${a.src}" rel="noopener noreferrer nofollow">${label}</a>`;
  });
}
