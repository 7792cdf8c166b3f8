// Runs first on the strict test page: records CSP and Trusted Types violations, then loads doclens
// the way an author's tag would, with the servers named in this page's query string.
window.violations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
const params = new URLSearchParams(location.search);
const policy = trustedTypes.createPolicy('test-page', { createScriptURL: (url) => url });
document.addEventListener('DOMContentLoaded', () => {
  document.getElementById('term').href = `${params.get('docs')}/en/latest/${params.get('target') ?? 'glossary.html#term-job'}`;
  const script = document.createElement('script');
  script.type = 'module';
  script.dataset.proxy = params.get('proxy');
  script.dataset.previewDomains = new URL(params.get('docs')).host;
  script.src = policy.createScriptURL(params.get('bundle') ?? '/dist/doclens.js');
  document.head.append(script);
});
