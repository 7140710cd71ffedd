/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ptbpf export: ClickHouse's HTTP interface through libcurl: the query
 * in the URL or the body, user and password from the URL or the
 * environment (basic authentication, never printed), its errors sorted
 * into those worth a retry and those that are not.
 */
#include <stdlib.h>
#include <string.h>
#include <curl/curl.h>

#include "export/export.h"

struct ch_conn {
	CURL *curl;
	CURLU *url;
	char *shown; /* the URL without user and password */
};

static size_t on_data(char *p, size_t size, size_t n, void *ctx)
{
	struct sbuf *b = ctx;

	/* an answer we read is small; a server that floods is cut */
	if (b->len + size * n > (64u << 20))
		return 0;
	sb_putn(b, p, size * n);
	return b->failed ? 0 : size * n;
}

/* Parses url; its scheme must be http or https. 0, or -1 (said). */
static int url_parse(struct ch_conn *c, const char *url)
{
	char *scheme = NULL;
	CURLUcode rc = curl_url_set(c->url, CURLUPART_URL, url, 0);

	if (rc) {
		cli_err("--clickhouse: not a URL (%s): give http://[USER[:PASSWORD]@]HOST:PORT/",
			curl_url_strerror(rc));
		return -1;
	}
	curl_url_get(c->url, CURLUPART_SCHEME, &scheme, 0);
	if (!scheme || (strcmp(scheme, "http") && strcmp(scheme, "https"))) {
		cli_err("--clickhouse: the URL's scheme must be http or https");
		curl_free(scheme);
		return -1;
	}
	curl_free(scheme);
	return 0;
}

/* User and password: the URL's, else the environment's; then the URL without them. */
static int set_auth(struct ch_conn *c)
{
	char *user = NULL, *pass = NULL, *shown = NULL;
	const char *eu = getenv("CLICKHOUSE_USER"), *ep = getenv("CLICKHOUSE_PASSWORD");

	curl_url_get(c->url, CURLUPART_USER, &user, CURLU_URLDECODE);
	curl_url_get(c->url, CURLUPART_PASSWORD, &pass, CURLU_URLDECODE);
	curl_easy_setopt(c->curl, CURLOPT_USERNAME, user ? user : eu ? eu : "default");
	if (pass || ep)
		curl_easy_setopt(c->curl, CURLOPT_PASSWORD, pass ? pass : ep);
	curl_free(user);
	curl_free(pass);
	curl_url_set(c->url, CURLUPART_USER, NULL, 0);
	curl_url_set(c->url, CURLUPART_PASSWORD, NULL, 0);
	if (curl_url_get(c->url, CURLUPART_URL, &shown, 0))
		return -1;
	c->shown = strdup(shown);
	curl_free(shown);
	return c->shown ? 0 : -1;
}

struct ch_conn *ch_open(const char *url)
{
	struct ch_conn *c = calloc(1, sizeof(*c));

	if (!c || curl_global_init(CURL_GLOBAL_DEFAULT)) {
		cli_err("out of memory");
		free(c);
		return NULL;
	}
	c->curl = curl_easy_init();
	c->url = curl_url();
	if (!c->curl || !c->url) {
		cli_err("out of memory");
		ch_close(c);
		return NULL;
	}
	if (url_parse(c, url) || set_auth(c)) {
		ch_close(c);
		return NULL;
	}
	curl_easy_setopt(c->curl, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
	curl_easy_setopt(c->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c->curl, CURLOPT_CONNECTTIMEOUT_MS, 3000L);
	curl_easy_setopt(c->curl, CURLOPT_TIMEOUT_MS, 60000L);
	curl_easy_setopt(c->curl, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(c->curl, CURLOPT_USERAGENT, "ptbpf");
	return c;
}

void ch_close(struct ch_conn *c)
{
	if (!c)
		return;
	curl_easy_cleanup(c->curl);
	curl_url_cleanup(c->url);
	free(c->shown);
	free(c);
	curl_global_cleanup();
}

const char *ch_url_shown(const struct ch_conn *c)
{
	return c->shown;
}

/* The URL with query= the query (body: a query with data), or NULL. */
static char *query_url(struct ch_conn *c, const char *query)
{
	CURLU *u = curl_url_dup(c->url);
	struct sbuf q = { 0 };
	char *url = NULL;

	sb_puts(&q, "query=");
	sb_puts(&q, query);
	if (u && !q.failed &&
	    !curl_url_set(u, CURLUPART_QUERY, q.s, CURLU_APPENDQUERY | CURLU_URLENCODE))
		curl_url_get(u, CURLUPART_URL, &url, 0);
	curl_url_cleanup(u);
	sb_free(&q);
	return url;
}

/* What a transfer's result says: CH_OK, CH_RETRY or CH_FAIL, msg set. */
static int query_result(struct ch_conn *c, CURLcode rc, const struct sbuf *resp, char *msg,
			size_t msize)
{
	long status = 0;
	int code;

	if (rc) {
		snprintf(msg, msize, "%s: %s", c->shown, curl_easy_strerror(rc));
		return rc == CURLE_URL_MALFORMAT || rc == CURLE_UNSUPPORTED_PROTOCOL ? CH_FAIL
										     : CH_RETRY;
	}
	curl_easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &status);
	if (status == 200)
		return CH_OK;
	code = ch_error_text(resp->s ? resp->s : "", resp->len, msg, msize);
	if (!msg[0])
		snprintf(msg, msize, "%s: HTTP status %ld", c->shown, status);
	if (ch_code_transient(code) || (!code && (status == 502 || status == 503 || status == 504)))
		return CH_RETRY;
	return CH_FAIL;
}

int ch_query(struct ch_conn *c, const char *query, const char *body, size_t blen, struct sbuf *resp,
	     char *msg, size_t msize)
{
	char *url = body ? query_url(c, query) : NULL;
	CURLcode rc;

	msg[0] = '\0';
	sb_reset(resp);
	if (body && !url) {
		snprintf(msg, msize, "out of memory");
		return CH_FAIL;
	}
	curl_easy_setopt(c->curl, CURLOPT_URL, url ? url : c->shown);
	if (!body) {
		body = query;
		blen = strlen(query);
	}
	curl_easy_setopt(c->curl, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)blen);
	curl_easy_setopt(c->curl, CURLOPT_WRITEDATA, resp);
	rc = curl_easy_perform(c->curl);
	curl_free(url);
	if (resp->failed && !rc) {
		snprintf(msg, msize, "out of memory");
		return CH_FAIL;
	}
	return query_result(c, rc, resp, msg, msize);
}
