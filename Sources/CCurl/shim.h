// libcurl's option and info calls are variadic, which Swift cannot call: one typed wrapper each.
#include <curl/curl.h>

static inline CURLcode nm_curl_set_long(CURL *c, CURLoption o, long v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode nm_curl_set_string(CURL *c, CURLoption o, const char *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode nm_curl_set_pointer(CURL *c, CURLoption o, void *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode nm_curl_set_offset(CURL *c, CURLoption o, curl_off_t v) { return curl_easy_setopt(c, o, v); }

typedef size_t (*nm_curl_data_callback)(char *data, size_t size, size_t count, void *user);
static inline CURLcode nm_curl_set_callback(CURL *c, CURLoption o, nm_curl_data_callback f) { return curl_easy_setopt(c, o, f); }

typedef int (*nm_curl_progress_callback)(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);
static inline CURLcode nm_curl_set_progress(CURL *c, nm_curl_progress_callback f) { return curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, f); }

static inline CURLcode nm_curl_get_long(CURL *c, CURLINFO i, long *v) { return curl_easy_getinfo(c, i, v); }
