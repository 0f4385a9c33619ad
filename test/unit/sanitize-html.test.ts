import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sanitizeHtml } from '../../src/lib/sanitize-html.js';

describe('sanitizeHtml', () => {
  it('keeps ordinary formatting', () => {
    assert.equal(
      sanitizeHtml('<p>Hi <b>there</b> <a href="https://x.test/a?b=1&amp;c=2">link</a></p>'),
      '<p>Hi <b>there</b> <a href="https://x.test/a?b=1&amp;c=2" rel="noopener noreferrer nofollow">link</a></p>',
    );
    assert.equal(sanitizeHtml('<table><tr><td colspan="2">a</td></tr></table>'), '<table><tr><td colspan="2">a</td></tr></table>');
    assert.equal(sanitizeHtml('<pre><code class="language-ts evil">x &lt; 1</code></pre>'), '<pre><code class="language-ts">x &lt; 1</code></pre>');
  });

  it('removes scripts, handlers, styles and dangerous URLs', () => {
    assert.equal(sanitizeHtml('<img src=x onerror=alert(1)>'), '<img src="x">');
    assert.equal(sanitizeHtml('a<script>alert(1)</script>b'), 'ab');
    assert.equal(sanitizeHtml('<style>body{}</style><p style="color:red" onclick="x()">t</p>'), '<p>t</p>');
    assert.equal(sanitizeHtml('<a href="javascript:alert(1)">x</a>'), '<a>x</a>');
    assert.equal(sanitizeHtml('<a href="java\tscript:alert(1)">x</a>'), '<a>x</a>');
    assert.equal(sanitizeHtml('<a href=" JaVaScRiPt:alert(1)">x</a>'), '<a>x</a>');
    assert.equal(sanitizeHtml('<a href="&#106;avascript:alert(1)">x</a>'), '<a>x</a>');
    assert.equal(sanitizeHtml('<a href="data:text/html,<script>">x</a>'), '<a>x</a>');
    assert.equal(sanitizeHtml('<img src="data:image/png;base64,AAAA">'), '<img src="data:image/png;base64,AAAA">');
    assert.equal(sanitizeHtml('<iframe src="https://e.test"></iframe><svg><script>x</script></svg>ok'), 'ok');
    assert.equal(sanitizeHtml('<form action="/x"><input type="text" name="a"><input type="checkbox" checked></form>'), '<input type="checkbox" checked="" disabled="">');
  });

  it('escapes text, unwraps unknown tags and closes what it opens', () => {
    assert.equal(sanitizeHtml('<custom-el>text</custom-el>'), 'text');
    assert.equal(sanitizeHtml('<p><b>open'), '<p><b>open</b></p>');
    assert.equal(sanitizeHtml('&lt;script&gt;alert(1)&lt;/script&gt;'), '&lt;script&gt;alert(1)&lt;/script&gt;');
    assert.equal(sanitizeHtml('<p title="&quot;><script>">x</p>'), '<p title="&quot;&gt;&lt;script&gt;">x</p>');
    assert.equal(sanitizeHtml('<!-- c --><![CDATA[x]]>y'), 'y');
  });
});
