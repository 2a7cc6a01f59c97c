"""Settings as shared/spec/drf-behaviour.md records the original service:
DEBUG off, APPEND_SLASH (CommonMiddleware), any host, no authentication,
JSONRenderer + BrowsableAPIRenderer, PageNumberPagination of 10.
"""
import os

SECRET_KEY = "drf-reference-test-only"
DEBUG = False
ALLOWED_HOSTS = ["*"]
APPEND_SLASH = True
ROOT_URLCONF = "refsite.urls"
USE_TZ = False

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "rest_framework",
    "refsite",
]

MIDDLEWARE = ["django.middleware.common.CommonMiddleware"]

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ["REF_DB"],
    }
}

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_PAGINATION_CLASS": "refsite.pagination.Pagination",
    "PAGE_SIZE": 10,
}
