{{/* The release's name for its objects: <release>-agenthub, or the release alone when it
says agenthub already; at most 63 characters (a DNS label). */}}
{{- define "agenthub.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "agenthub.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "agenthub.labels" -}}
{{ include "agenthub.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "agenthub.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{/* Whether the record is on PostgreSQL (a URL or a Secret given) or SQLite on a PVC. */}}
{{- define "agenthub.external" -}}
{{- if or .Values.database.url .Values.database.existingSecret -}}true{{- end -}}
{{- end -}}

{{- define "agenthub.databaseSecret" -}}
{{- .Values.database.existingSecret | default (printf "%s-database" (include "agenthub.fullname" .)) -}}
{{- end -}}

{{- define "agenthub.tokensSecret" -}}
{{- .Values.tokens.existingSecret | default (printf "%s-tokens" (include "agenthub.fullname" .)) -}}
{{- end -}}

{{- define "agenthub.keysSecret" -}}
{{- .Values.keys.existingSecret | default (printf "%s-keys" (include "agenthub.fullname" .)) -}}
{{- end -}}

{{/* One token: the value given, else the one the Secret already holds (kept across
upgrades), else a new random one. */}}
{{- define "agenthub.token" -}}
{{- $given := index .values .name -}}
{{- if $given -}}
{{- $given -}}
{{- else -}}
{{- $existing := lookup "v1" "Secret" .namespace .secret -}}
{{- if and $existing (index $existing.data .key) -}}
{{- index $existing.data .key | b64dec -}}
{{- else -}}
{{- randAlphaNum 40 -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The settings every hub container (and the migration Job) reads. */}}
{{- define "agenthub.storeEnv" -}}
{{- if include "agenthub.external" . }}
- name: AGENTHUB_DATABASE_URL_FILE
  value: /run/secrets/agenthub/database/{{ .Values.database.existingSecretKey }}
{{- else }}
- name: AGENTHUB_DATABASE_URL
  value: sqlite+aiosqlite:////var/lib/agenthub/data/agenthub.db
{{- end }}
- name: AGENTHUB_SIGNING_KEY_FILE
  value: /var/lib/agenthub/keys/hub-signing-key.pem
- name: AGENTHUB_LOG_FORMAT
  value: json
- name: AGENTHUB_LOG_LEVEL
  value: {{ .Values.hub.logLevel | quote }}
{{- end -}}

{{/* Refuse what cannot work, in one line each. */}}
{{- define "agenthub.checks" -}}
{{- $replicas := int .Values.replicaCount -}}
{{- if .Values.autoscaling.enabled -}}{{- $replicas = int .Values.autoscaling.maxReplicas -}}{{- end -}}
{{- if and (gt $replicas 1) (not (include "agenthub.external" .)) -}}
{{- fail "more than one replica needs PostgreSQL: set database.url or database.existingSecret (SQLite serves one replica)" -}}
{{- end -}}
{{- if and (contains "*" .Values.hub.forwardedAllowIps) (not .Values.networkPolicy.enabled) -}}
{{- fail "hub.forwardedAllowIps \"*\" believes X-Forwarded-For from any pod: give the Ingress controller's range, or set networkPolicy.enabled" -}}
{{- end -}}
{{- if and .Values.networkPolicy.enabled (not .Values.networkPolicy.from) -}}
{{- fail "networkPolicy.enabled with no networkPolicy.from lets no one reach the hub: list the Ingress controller's pods" -}}
{{- end -}}
{{- if and (gt $replicas 1) (not .Values.redis.url) -}}
{{- fail "more than one replica needs Redis between them: set redis.url (e.g. redis://redis:6379/0)" -}}
{{- end -}}
{{- end -}}

{{/* AGENTHUB_PUBLIC_URL: the URL agents reach the hub at, which goes into what the hub signs
(never a request's Host header): hub.publicUrl, else the Ingress's host (https with its TLS
Secret), else the Service inside the cluster. */}}
{{- define "agenthub.publicUrl" -}}
{{- if .Values.hub.publicUrl -}}
{{- .Values.hub.publicUrl -}}
{{- else if .Values.ingress.enabled -}}
{{- printf "%s://%s" (ternary "https" "http" (ne .Values.ingress.tlsSecretName "")) .Values.ingress.host -}}
{{- else -}}
{{- $port := int .Values.service.port -}}
{{- printf "http://%s.%s.svc%s" (include "agenthub.fullname" .) .Release.Namespace (ternary "" (printf ":%d" $port) (eq $port 80)) -}}
{{- end -}}
{{- end -}}
