// People who sign in: the sign-in and its second factor, sessions and their CSRF token, the rules a new password
// must meet, and the administration of a project's people.
import { defineMessages } from "../define.ts";

export const users = defineMessages({
  en: {
    "error.csrf":
      "This request was refused because it did not carry the session's security token (header x-csrf-token): reload the page and try again.",
    "error.session_ended": "Your session has ended: sign in again.",
    "error.not_a_person": "This needs a person signed in, not an API key.",
    "login.failed": "The e-mail, the password or the code is not right.",
    "login.totp_required": "Enter the 6-digit code of your authenticator app.",
    "login.limited":
      "Too many failed sign-ins: wait {seconds, plural, one {# second} other {# seconds}} and try again.",
    "login.bad_origin":
      "This sign-in came from another site ({origin}) and was refused: open the service's own page to sign in.",
    "password.too_short":
      "The password needs at least {min} characters; a phrase of several words is easiest.",
    "password.too_long": "The password may have at most {max} characters.",
    "password.common": "This password is among the most used or leaked ones: choose another.",
    "password.personal": "The password may not contain your e-mail or your name.",
    "password.wrong_current": "The current password is not right.",
    "password.link_invalid":
      "This link to set a password is not valid or has expired: ask an administrator for another.",
    "totp.invalid": "The code is not right or was already used: enter the one your app shows now.",
    "totp.not_started": "Start the set-up of the authenticator first (POST /auth/totp/setup).",
    "totp.already_enabled": "Two-step sign-in is already on for this account.",
    "user.email_taken": "An account with this e-mail already exists.",
    "user.not_found": "This person is not one of the project's.",
    "user.last_admin":
      "The project's last administrator cannot be disabled or lose the role: name another first.",
    "user.time_zone_invalid": "“{zone}” is not a time zone: use a name such as America/Mexico_City.",
    "oidc.disabled": "Sign-in with an identity provider is not configured on this service.",
    "oidc.no_account":
      "No account of this service has the e-mail {email}: an administrator must create it first (there is no self sign-up).",
    "oidc.unverified":
      "The identity provider did not confirm this e-mail address, so it cannot be used to sign in.",
    "oidc.failed": "The sign-in with the identity provider did not finish: start it again.",
  },
  es: {
    "error.csrf":
      "Se rechazó esta solicitud porque no traía el código de seguridad de la sesión (encabezado x-csrf-token): recargue la página e intente de nuevo.",
    "error.session_ended": "Su sesión terminó: inicie sesión de nuevo.",
    "error.not_a_person": "Esto requiere una persona con sesión iniciada, no una clave de API.",
    "login.failed": "El correo, la contraseña o el código no son correctos.",
    "login.totp_required": "Escriba el código de 6 dígitos de su aplicación de autenticación.",
    "login.limited":
      "Demasiados intentos fallidos: espere {seconds, plural, one {# segundo} other {# segundos}} e intente de nuevo.",
    "login.bad_origin":
      "Este inicio de sesión venía de otro sitio ({origin}) y se rechazó: abra la página del propio servicio para iniciar sesión.",
    "password.too_short":
      "La contraseña necesita al menos {min} caracteres; una frase de varias palabras es lo más fácil.",
    "password.too_long": "La contraseña puede tener como máximo {max} caracteres.",
    "password.common": "Esta contraseña está entre las más usadas o filtradas: elija otra.",
    "password.personal": "La contraseña no puede contener su correo ni su nombre.",
    "password.wrong_current": "La contraseña actual no es correcta.",
    "password.link_invalid":
      "Este enlace para definir la contraseña no es válido o ya venció: pida otro a un administrador.",
    "totp.invalid": "El código no es correcto o ya se usó: escriba el que muestra su aplicación ahora.",
    "totp.not_started": "Primero inicie la configuración del autenticador (POST /auth/totp/setup).",
    "totp.already_enabled": "El inicio de sesión en dos pasos ya está activo en esta cuenta.",
    "user.email_taken": "Ya existe una cuenta con este correo.",
    "user.not_found": "Esta persona no pertenece al proyecto.",
    "user.last_admin":
      "El último administrador del proyecto no puede desactivarse ni perder el rol: nombre primero a otro.",
    "user.time_zone_invalid": "“{zone}” no es una zona horaria: use un nombre como America/Mexico_City.",
    "oidc.disabled":
      "El inicio de sesión con un proveedor de identidad no está configurado en este servicio.",
    "oidc.no_account":
      "Ninguna cuenta de este servicio tiene el correo {email}: un administrador debe crearla primero (no hay registro propio).",
    "oidc.unverified":
      "El proveedor de identidad no confirmó esta dirección de correo, así que no puede usarse para iniciar sesión.",
    "oidc.failed": "El inicio de sesión con el proveedor de identidad no terminó: vuelva a empezarlo.",
  },
});
