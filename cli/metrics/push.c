/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The metrics PUT to a Pushgateway with libcurl, under the grouping key
 * job "ptbpf" and instance the host's name: a PUT replaces the group's
 * metrics, so what the gateway holds is always one whole exposition.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <curl/curl.h>

#include "metrics/metrics.h"

#define PUSH_TIMEOUT_S 5L

struct body {
	const char *s;
	size_t left;
};

static size_t read_body(char *buf, size_t size, size_t n, void *p)
{
	struct body *b = p;
	size_t len = size * n < b->left ? size * n : b->left;

	memcpy(buf, b->s, len);
	b->s += len;
	b->left -= len;
	return len;
}

static size_t drop(char *buf, size_t size, size_t n, void *p)
{
	(void)buf;
	(void)p;
	return size * n;
}

int metrics_push(const char *url, const struct sbuf *body, char *msg, size_t msgsz)
{
	struct body b = { body->s ? body->s : "", body->len };
	struct curl_slist *hdrs;
	char full[1024], host[256] = "localhost", *esc;
	size_t n = strlen(url);
	long status = 0;
	CURLcode rc;
	CURL *c;

	gethostname(host, sizeof(host) - 1);
	c = curl_easy_init();
	if (!c) {
		snprintf(msg, msgsz, "%s: cannot start a transfer", url);
		return -1;
	}
	esc = curl_easy_escape(c, host, 0);
	while (n && url[n - 1] == '/')
		n--;
	snprintf(full, sizeof(full), "%.*s/metrics/job/ptbpf/instance/%s", (int)n, url,
		 esc ? esc : "localhost");
	curl_free(esc);
	hdrs = curl_slist_append(NULL, "Content-Type: text/plain; version=0.0.4; charset=utf-8");
	curl_easy_setopt(c, CURLOPT_URL, full);
	curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(c, CURLOPT_READFUNCTION, read_body);
	curl_easy_setopt(c, CURLOPT_READDATA, &b);
	curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)b.left);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, drop);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, PUSH_TIMEOUT_S);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	rc = curl_easy_perform(c);
	if (rc == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(hdrs);
	curl_easy_cleanup(c);
	if (rc != CURLE_OK) {
		snprintf(msg, msgsz, "%s: %s", full, curl_easy_strerror(rc));
		return -1;
	}
	if (status < 200 || status > 299) {
		snprintf(msg, msgsz, "%s: HTTP status %ld", full, status);
		return -1;
	}
	return 0;
}
