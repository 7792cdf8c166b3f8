import { describe, expect, it } from 'vitest';
import { runEmbedJob } from './jobs.ts';

const pageUrl = 'https://docs.example.org/en/latest/api.html';
const content =
  '<dl class="py method"><dt class="sig" id="aurora.Job.run"><span class="sig-name">run</span><a class="headerlink" ' +
  'href="#aurora.Job.run">¶</a></dt><dd><p>Runs the job; see <a href="guide.html#runs">runs</a>.</p></dd></dl>';

describe('the upstreamSection job', () => {
  it('answers a section with its links absolute', () => {
    const { content: absolute } = runEmbedJob('upstreamSection', { content, pageUrl, preview: false }) as { content: string };
    expect(absolute).toContain('href="https://docs.example.org/en/latest/guide.html#runs"');
    expect(absolute).toContain('class="headerlink"');
  });

  it('answers a preview with the preview alone, links absolute, and what the proxy reads of it', () => {
    const output = runEmbedJob('upstreamSection', { content, pageUrl, preview: true });
    expect(output).not.toHaveProperty('content');
    expect(output).toMatchObject({ previewHasText: true, cutFromListing: false, preview: { title: 'Job.run' } });
    const { preview } = output as { preview: { content: string } };
    expect(preview.content).toContain('href="https://docs.example.org/en/latest/guide.html#runs"');
    expect(preview.content).not.toContain('headerlink');
  });
});
